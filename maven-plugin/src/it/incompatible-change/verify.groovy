def log = new File(basedir, 'build.log').text

// The whole report, at ERROR: each finding with its example and its fix.
assert log.contains('[ERROR] shop.Order in src/main/proto/shop/order.proto: Incompatible under FULL ')
assert log.contains(' under FULL (profile pip246): 2 violations, 0 warnings in 1 change against 1 existing schema')
def finding = 'src/main/proto/shop/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] '
assert log.contains('[ERROR] ' + finding)
assert log.contains('[ERROR]     existing writes, new reads:')
assert log.contains('[ERROR]       writer: { note: "a" }')
assert log.contains('[ERROR]       bytes:  22 01 61')
assert log.contains('[ERROR]     new writes, existing reads:')
assert log.contains('[ERROR]       bytes:  2a 01 61')
assert log.contains('[ERROR]     fix: give field note its old number 4')
assert log.contains('[ERROR]       src/main/proto/shop/order.proto:8:17: write `4` in place of `5`')
assert log.contains('BUILD FAILURE')

// Maven's failure summary says why and repeats the verdict and the findings.
def summary = log.substring(log.indexOf('BUILD FAILURE'))
assert summary =~ /\[ERROR\] Failed to execute goal dev\.protocompat:protocompat-maven-plugin:\S+:check \(default\) on project incompatible-change: The schema change is incompatible/
assert summary.contains('  shop.Order in src/main/proto/shop/order.proto: Incompatible under FULL ')
assert summary.contains('  ' + finding)
// One change, found in both directions: one entry.
assert !summary.contains('(field 5): writer=number 5 reader=number 4')
return true
