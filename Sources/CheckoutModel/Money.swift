/// An exact amount of money: integer minor units (cents) in one currency. Never floating point.
public struct Money: Hashable, Sendable, Comparable {
    public let minorUnits: Int
    public let currency: Currency

    public init(minorUnits: Int, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public static func zero(_ currency: Currency) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    public var isZero: Bool { minorUnits == 0 }
    public var isPositive: Bool { minorUnits > 0 }

    public static func + (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "adding \(rhs.currency) to \(lhs.currency)")
        return Money(minorUnits: lhs.minorUnits + rhs.minorUnits, currency: lhs.currency)
    }

    public static func - (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "subtracting \(rhs.currency) from \(lhs.currency)")
        return Money(minorUnits: lhs.minorUnits - rhs.minorUnits, currency: lhs.currency)
    }

    public static prefix func - (amount: Money) -> Money {
        Money(minorUnits: -amount.minorUnits, currency: amount.currency)
    }

    public static func * (lhs: Money, quantity: Int) -> Money {
        Money(minorUnits: lhs.minorUnits * quantity, currency: lhs.currency)
    }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        precondition(lhs.currency == rhs.currency, "comparing \(rhs.currency) with \(lhs.currency)")
        return lhs.minorUnits < rhs.minorUnits
    }

    /// This amount times basisPoints/10000, rounded half away from zero to a whole minor unit.
    public func portion(basisPoints: Int) -> Money {
        let product = minorUnits * basisPoints
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: 10_000)
        let roundsAway = abs(remainder) * 2 >= 10_000
        let rounded = roundsAway ? quotient + (product < 0 ? -1 : 1) : quotient
        return Money(minorUnits: rounded, currency: currency)
    }
}

extension Sequence where Element == Money {
    /// The sum of the amounts, all in `currency`.
    public func sum(in currency: Currency) -> Money {
        reduce(.zero(currency), +)
    }
}
