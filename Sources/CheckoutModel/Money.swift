/// An exact amount of money: integer minor units (cents) in one currency. Never floating point.
/// Arithmetic never traps: an overflow or a mix of currencies is a `MoneyError`.
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

    public static func + (lhs: Money, rhs: Money) throws(MoneyError) -> Money {
        try combine(lhs, rhs, "adding") { $0.addingReportingOverflow($1) }
    }

    public static func - (lhs: Money, rhs: Money) throws(MoneyError) -> Money {
        try combine(lhs, rhs, "subtracting") { $0.subtractingReportingOverflow($1) }
    }

    public static prefix func - (amount: Money) throws(MoneyError) -> Money {
        try .zero(amount.currency) - amount
    }

    public static func * (lhs: Money, quantity: Int) throws(MoneyError) -> Money {
        let (product, overflow) = lhs.minorUnits.multipliedReportingOverflow(by: quantity)
        guard !overflow else { throw .overflow("\(lhs.formatted) × \(quantity)") }
        return Money(minorUnits: product, currency: lhs.currency)
    }

    /// Compares amounts of one currency; amounts of different currencies order by currency code
    /// (a total order, so sorting never traps).
    public static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.currency == rhs.currency ? lhs.minorUnits < rhs.minorUnits : lhs.currency.code < rhs.currency.code
    }

    /// This amount times basisPoints/10000, rounded half away from zero to a whole minor unit.
    public func portion(basisPoints: Int) throws(MoneyError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: basisPoints)
        guard !overflow else { throw .overflow("\(basisPoints) basis points of \(formatted)") }
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: 10_000)
        let roundsAway = remainder.magnitude * 2 >= 10_000
        let rounded = roundsAway ? quotient + (product < 0 ? -1 : 1) : quotient
        return Money(minorUnits: rounded, currency: currency)
    }

    private static func combine(
        _ lhs: Money, _ rhs: Money, _ operation: String, _ apply: (Int, Int) -> (partialValue: Int, overflow: Bool)
    ) throws(MoneyError) -> Money {
        guard lhs.currency == rhs.currency else { throw .currencyMismatch(lhs.currency.code, rhs.currency.code) }
        let (result, overflow) = apply(lhs.minorUnits, rhs.minorUnits)
        guard !overflow else { throw .overflow("\(operation) \(rhs.formatted) and \(lhs.formatted)") }
        return Money(minorUnits: result, currency: lhs.currency)
    }
}

/// Arithmetic on money that has no exact answer.
public enum MoneyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The result does not fit in 64-bit minor units.
    case overflow(String)
    case currencyMismatch(String, String)

    public var description: String {
        switch self {
        case .overflow(let what): "the amount is too large to compute (\(what))"
        case .currencyMismatch(let one, let other): "amounts in \(one) and \(other) cannot be combined"
        }
    }
}

extension Sequence where Element == Money {
    /// The sum of the amounts, all in `currency`.
    public func sum(in currency: Currency) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for amount in self { total = try total + amount }
        return total
    }
}
