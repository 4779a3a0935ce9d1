def log = new File(basedir, 'build.log').text
// Accepted with warnings, as the broker accepts it: the warning and its example and fix stand
// out as [WARNING]; the rest of the report stays [INFO].
assert log.contains('[INFO] shop.Order in src/main/proto/shop/order.proto: Compatible under FULL ')
assert log.contains('[WARNING] src/main/proto/shop/order.proto:8:3: warning: SCALAR_TYPE_CHANGED shop.Order.note (field 4): existing=string new=int64 [FULL, existing[0] ')
// Both directions' examples are warning lines too.
assert log.contains('[WARNING]     new writes, existing reads:')
assert log =~ /\[WARNING\]     suggested fix \(a warning: --fix leaves it, --fix-warnings makes it\): /
assert log.contains('[INFO] existing[0]: old/shop/order.proto')
assert log.contains('BUILD SUCCESS')
return true
