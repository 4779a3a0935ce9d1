// A repository of the sample's own on the branch main, the project file's baseline: v1 of both
// topics committed, then an incompatible shop.Order in the work tree.
def git(String... args) {
    def command = ['git', '-c', 'user.name=protocompat-it', '-c', 'user.email=it@protocompat.invalid',
                   '-c', 'commit.gpgsign=false'] + args.toList()
    def process = new ProcessBuilder(command).directory(basedir).redirectErrorStream(true).start()
    def output = process.inputStream.text
    assert process.waitFor() == 0 : "${command.join(' ')} failed:\n${output}"
}

git 'init', '-q'
git 'symbolic-ref', 'HEAD', 'refs/heads/main'
git 'add', 'protocompat.yaml', 'src/main/proto'
git 'commit', '-q', '-m', 'v1 of both topics'
new File(basedir, 'src/main/proto/shop/order.proto').text = new File(basedir, 'next/shop/order.proto').text
return true
