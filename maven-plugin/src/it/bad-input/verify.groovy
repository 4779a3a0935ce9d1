def log = new File(basedir, 'build.log').text
def summary = log.substring(log.indexOf('BUILD FAILURE'))
// Bad input is a build error carrying the CLI's own message, not a verdict.
assert summary =~ /\[ERROR\] Failed to execute goal dev\.protocompat:protocompat-maven-plugin:\S+:check \(default\) on project bad-input: protocompat: bad input or usage:/
assert summary.contains('[ERROR]   protocompat: src/main/proto/shop/missing.proto: cannot read the file: no such file')
assert !log.contains('The schema change is incompatible')
assert log.contains('MojoExecutionException')
return true
