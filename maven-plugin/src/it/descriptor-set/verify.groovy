def log = new File(basedir, 'build.log').text
// The descriptor set goes to the CLI as the new schema, with no -I.
assert log =~ /\[INFO\] protocompat: \S+\/protocompat check --root shop\.Order --against history\.json --strategy FULL_TRANSITIVE descriptors\/order\.desc\n/
assert log.contains('[INFO] shop.Order in descriptors/order.desc: Compatible under FULL_TRANSITIVE ')
assert log.contains(' under FULL_TRANSITIVE (profile pip246): 0 warnings against 2 existing schemas')
assert log.contains('[INFO] new: descriptors/order.desc (schema data sha256 ')
// The history's own version numbers name the existing schemas.
assert log.contains('[INFO] version 0: history.json')
assert log.contains('[INFO] version 1: history.json')
assert log.contains('BUILD SUCCESS')
return true
