/// Who writes a change: this process (a random token per open store) and the context within it.
package struct StoreOrigin: Sendable {
    let process: String
    let context: UInt64
}
