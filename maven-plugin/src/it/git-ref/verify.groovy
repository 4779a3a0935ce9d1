def log = new File(basedir, 'build.log').text
// The existing side is the committed v1, read from git, not the work tree's v2 (which schema
// is which: [INFO]; the findings: [ERROR]).
assert log.contains('[INFO] existing[0]: .git#ref=HEAD,subdir=src/main/proto:shop/order.proto')
assert log.contains('[ERROR] src/main/proto/shop/order.proto:7:3: FIELD_KIND_CHANGED shop.Order.total (field 3): existing=message shop.Money new=int64 [FULL, existing[0] ')
assert log.contains('[ERROR]       writer: { total { } }')
assert log.contains('[ERROR]     fix: keep field total as it was, deprecated, and add the new declaration as field total_v2 = 5')
assert log.contains('BUILD FAILURE')
assert log.contains('The schema change is incompatible')
return true
