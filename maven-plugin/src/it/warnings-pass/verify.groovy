def log = new File(basedir, 'build.log').text
// Accepted with warnings, as the broker accepts it: the warning and its example and fix stand
// out as [WARNING]; the rest of the report stays [INFO].
assert log.contains('[INFO] Compatible PROTOBUF_NATIVE schema ')
assert log.contains('[WARNING] src/main/proto/shop/order.proto:8:3: warning: SCALAR_TYPE_CHANGED shop.Order.note (field 4): writer=string reader=int64 [FULL, existing[0] ')
assert log =~ /\[WARNING\]     suggested fix \(a warning: --fix leaves it, --fix-warnings makes it\): /
assert log.contains('[INFO] existing[0]: old/shop/order.proto')
assert log.contains('BUILD SUCCESS')
return true
