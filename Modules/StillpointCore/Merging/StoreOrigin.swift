/// Who writes a change: this process (a random token per open store) and the context within it.
package struct StoreOrigin: Sendable {
    package let process: String
    package let context: UInt64
}
