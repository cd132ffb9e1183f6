import Foundation

/// The shared sandbox's resident memory, sampled as the soak goes: after the first tenth of the
/// checkouts (warm) and at the end. Steady means the end is within 1.5 × warm + 32 MB: a store
/// that kept every request would grow with the checkouts instead.
struct SandboxMemory {
    let pid: Int32
    /// Which instance, when the soak runs several ("instance 2"); nil for the only one.
    var label: String? = nil
    private(set) var samples: [(after: Int, kilobytes: Int)] = []

    init(pid: Int32, label: String? = nil) {
        self.pid = pid
        self.label = label
    }

    mutating func sample(after checkouts: Int) {
        guard let kilobytes = ProcessMemory.residentKilobytes(of: pid) else { return }
        samples.append((checkouts, kilobytes))
    }

    var problem: String? {
        guard let warm = samples.first, let end = samples.last, samples.count > 1 else { return nil }
        let allowed = warm.kilobytes * 3 / 2 + 32 * 1024
        return end.kilobytes > allowed
            ? "\(label.map { "\($0): " } ?? "")sandbox memory grew from \(warm.kilobytes / 1024) MB after \(warm.after) checkouts to \(end.kilobytes / 1024) MB after \(end.after)"
            : nil
    }

    var description: String {
        (label.map { "\($0): " } ?? "") + samples.map { "\($0.kilobytes / 1024) MB after \($0.after)" }.joined(separator: ", ")
    }
}
