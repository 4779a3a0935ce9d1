def log = new File(basedir, 'build.log').text
assert log.contains('[INFO] protocompat: check skipped (protocompat.skip)')
assert !log.contains('PROTOBUF_NATIVE schema')
assert log.contains('BUILD SUCCESS')
assert !new File(basedir, 'target/protocompat').exists()
return true
