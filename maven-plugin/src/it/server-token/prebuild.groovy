// The copy invoker made of the project may have lost the stand-in's executable bit.
assert new File(basedir, 'bin/protocompat').setExecutable(true)
return true
