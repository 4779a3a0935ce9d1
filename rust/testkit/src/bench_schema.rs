//! The benchmark schemas of `bench/schemas`, shared by the benches and the profiling example:
//! compiled once without source info (as protoc-generated classes give them to Pulsar), then
//! versioned the way `bench/schemas/gen.py` describes.

use prost::Message;
use prost_types::FileDescriptorSet;

pub struct BenchSchema {
    set: FileDescriptorSet,
    root_file: String,
}

impl BenchSchema {
    /// `bench/schemas/<size>.proto`.
    pub fn compile(size: &str) -> BenchSchema {
        let dir = crate::bench_schemas();
        let root_file = format!("{size}.proto");
        let mut compiler = protox::Compiler::new([&dir]).unwrap();
        compiler.include_imports(true);
        compiler.open_file(&root_file).unwrap();
        BenchSchema {
            set: compiler.file_descriptor_set(),
            root_file,
        }
    }

    /// Schema data of version `v`: the file option `java_outer_classname = "RootV<v>"`.
    pub fn version(&self, v: usize) -> Vec<u8> {
        let mut set = self.set.clone();
        set.file[0]
            .options
            .get_or_insert_with(Default::default)
            .java_outer_classname = Some(format!("RootV{v}"));
        crate::schema_of_bytes(set.encode_to_vec(), "bench.Root", &self.root_file)
    }
}
