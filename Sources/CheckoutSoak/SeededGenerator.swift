/// SplitMix64: a small, fast generator whose whole sequence follows from its seed, so a soak
/// run is reproduced exactly by its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One of `choices`, each as likely as its weight.
    mutating func weighted<T>(_ choices: [(T, Int)]) -> T {
        var pick = Int.random(in: 0..<choices.reduce(0) { $0 + $1.1 }, using: &self)
        for (choice, weight) in choices {
            if pick < weight { return choice }
            pick -= weight
        }
        return choices[choices.count - 1].0
    }
}
