def log = new File(basedir, 'build.log').text

// The whole report: each violation with its example and its fix at ERROR, each warning (which
// the broker accepts) at WARNING, which schema is which at INFO.
assert log.contains('[ERROR] shop.Order in src/main/proto/shop/order.proto: Incompatible under FULL ')
assert log.contains(' under FULL (profile pip246): 2 violations, 2 warnings in 2 changes against 1 existing schema')
def finding = 'src/main/proto/shop/order.proto:8:3: FIELD_NUMBER_CHANGED shop.Order.note (field 4 → 5): existing=number 4 new=number 5 [FULL, existing[0] '
assert log.contains('[ERROR] ' + finding)
assert log.contains('[ERROR]     existing writes, new reads:')
assert log.contains('[ERROR]       writer: { note: "a" }')
assert log.contains('[ERROR]       bytes:  22 01 61')
assert log.contains('[ERROR]     new writes, existing reads:')
assert log.contains('[ERROR]       bytes:  2a 01 61')
assert log.contains('[ERROR]     fix: give field note its old number 4')
assert log.contains('[ERROR]       src/main/proto/shop/order.proto:8:17: write `4` in place of `5`')
def warning = 'src/main/proto/shop/order.proto:5:3: warning: SCALAR_TYPE_CHANGED shop.Order.id (field 1): existing=int64 new=string [FULL, existing[0] '
assert log.contains('[WARNING] ' + warning)
assert !log.contains('[ERROR] ' + warning)
assert log =~ /\[WARNING\]     suggested fix \(a warning: --fix leaves it, --fix-warnings makes it\): /
assert log.contains('[INFO] existing[0]: old/shop/order.proto')
assert log.contains('BUILD FAILURE')

// Maven's failure summary says why and repeats the verdict and the findings.
def summary = log.substring(log.indexOf('BUILD FAILURE'))
assert summary =~ /\[ERROR\] Failed to execute goal dev\.protocompat:protocompat-maven-plugin:\S+:check \(default\) on project incompatible-change: The schema change is incompatible/
assert summary.contains('  shop.Order in src/main/proto/shop/order.proto: Incompatible under FULL ')
assert summary.contains('  ' + finding)
// One change, found in both directions: one entry.
assert !summary.contains('(field 5): writer=number 5 reader=number 4')
return true
