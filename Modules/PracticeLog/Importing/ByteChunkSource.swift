/// Hands out an input's bytes a block at a time, so nothing ever holds the whole input.
protocol ByteChunkSource: AnyObject {
    /// The next block of at most the source's chunk size, or `nil` at the end of the input.
    func nextChunk() throws -> [UInt8]?
}
