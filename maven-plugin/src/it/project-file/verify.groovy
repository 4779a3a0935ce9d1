def log = new File(basedir, 'build.log').text
// One execution, the whole project: the CLI is given the project file and no schema.
assert log =~ /\[INFO\] protocompat: \S+\/protocompat check --project protocompat\.yaml\n/
// Both topics reported; the incompatible one fails the build, its finding at ERROR.
assert log.contains('persistent://shop/orders/orders')
assert log.contains('persistent://shop/fulfilment/shipments')
assert log =~ /\[ERROR\] \S*order\.proto:8:3: FIELD_NUMBER_CHANGED shop\.Order\.note /
// The topic that passes is no error; Maven's summary names the topic that fails.
assert log =~ /\[INFO\] shop\.Shipment in \S+: Compatible under BACKWARD /
assert log.contains('BUILD FAILURE')
def summary = log.substring(log.indexOf('BUILD FAILURE'))
assert summary.contains('  topic persistent://shop/orders/orders, against ')
assert summary.contains('  shop.Order in src/main/proto/shop/order.proto: Incompatible under FULL ')
assert !summary.contains(': Compatible under ')
assert log.contains('The schema change is incompatible')
return true
