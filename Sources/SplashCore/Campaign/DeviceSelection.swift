import Foundation
import SplashFormat

/// Which devices a campaign renders for.
package enum DeviceSelection: Equatable, Sendable {
    /// The whole catalogue.
    case all
    /// Families and names.
    case some([DeviceSelector])
}

/// One item of a device list.
package enum DeviceSelector: Equatable, Sendable {
    /// Every device of a family.
    case family(DeviceFamily)
    /// One catalogue entry.
    case named(String)
}
