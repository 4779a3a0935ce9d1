// A repository of the sample's own, as a team has: v1 committed, v2 in the work tree.
def git(String... args) {
    def command = ['git', '-c', 'user.name=protocompat-it', '-c', 'user.email=it@protocompat.invalid',
                   '-c', 'commit.gpgsign=false'] + args.toList()
    def process = new ProcessBuilder(command).directory(basedir).redirectErrorStream(true).start()
    def output = process.inputStream.text
    assert process.waitFor() == 0 : "${command.join(' ')} failed:\n${output}"
}

git 'init', '-q'
git 'add', 'src/main/proto'
git 'commit', '-q', '-m', 'v1 of shop.Order'
new File(basedir, 'src/main/proto/shop/order.proto').text = new File(basedir, 'next/shop/order.proto').text
return true
