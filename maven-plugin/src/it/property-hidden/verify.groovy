def log = new File(basedir, 'build.log').text
// Maven's rule holds (the pom's <against> wins, so the check passes against old/), and is said.
// (The pom's value as Maven interpolated it: this sample's absolute path.)
assert log =~ /\[WARNING\] protocompat: -Dprotocompat\.against=does-not-exist is ignored: the pom sets <against>\S+\/property-hidden\/old<\/against>, and Maven gives the pom's value precedence\./
assert log.contains('[INFO] existing[0]: old/shop/order.proto')
// A property the pom leaves alone applies, and draws no warning.
assert log.contains(' --strategy BACKWARD ')
assert !log.contains('-Dprotocompat.strategy=BACKWARD is ignored')
assert log.contains('BUILD SUCCESS')
return true
