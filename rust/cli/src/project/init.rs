//! `protocompat init`: a first project file for an existing service.
