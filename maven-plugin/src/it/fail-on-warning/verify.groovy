def log = new File(basedir, 'build.log').text
assert log.contains(' --fail-on-warning ')
assert log.contains('[ERROR] shop.Order in src/main/proto/shop/order.proto: Compatible under FULL ')
assert log.contains('[ERROR] src/main/proto/shop/order.proto:8:3: warning: SCALAR_TYPE_CHANGED shop.Order.note (field 4): existing=string new=int64 [FULL, existing[0] ')
def summary = log.substring(log.indexOf('BUILD FAILURE'))
// Not called incompatible: the broker would take it; the build's own setting refuses it.
assert summary.contains('on project fail-on-warning: The schema change has warnings, and failOnWarning is set')
assert summary.contains('  src/main/proto/shop/order.proto:8:3: warning: SCALAR_TYPE_CHANGED shop.Order.note (field 4)')
return true
