def log = new File(basedir, 'build.log').text

// The command the plugin ran, paths relative to the project, as the developer would type it.
assert log =~ /\[INFO\] protocompat: \S+\/protocompat check --root shop\.Order --against old -I src\/main\/proto src\/main\/proto\/shop\/order\.proto\n/
assert log.contains('[INFO] shop.Order in src/main/proto/shop/order.proto: Compatible under FULL ')
assert log.contains(' under FULL (profile pip246): 0 warnings against 1 existing schema')
assert log.contains('[INFO] existing[0]: old/shop/order.proto')
assert log.contains('BUILD SUCCESS')

// The bundled executable for this machine, extracted into the project's target/.
def extracted = new File(basedir, 'target/protocompat').listFiles().collect { new File(it, 'protocompat') }
assert extracted.size() == 1 && extracted[0].canExecute()
return true
