def log = new File(basedir, 'build.log').text
assert log.contains('[INFO] stand-in: PULSAR_AUTH_TOKEN holds the token of settings.xml\'s server pulsar-it')
assert log =~ /\[INFO\] protocompat: \S+\/bin\/protocompat check --root shop\.Order --admin-url http:\/\/127\.0\.0\.1:9 --topic persistent:\/\/public\/default\/orders -I src\/main\/proto src\/main\/proto\/shop\/order\.proto\n/
// Neither on the command line nor anywhere in the log.
assert !log.contains('it-secret-token-3f9a')
assert log.contains('BUILD SUCCESS')
return true
