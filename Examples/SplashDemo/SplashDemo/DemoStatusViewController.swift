import UIKit

/// The app-delegate shape's window content, in UIKit: what ``SplashDemoApp``'s window shows in the
/// SwiftUI shapes, the title and the last run's summary.
final class DemoStatusViewController: UIViewController {
    private let summary = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let heading = UILabel()
        heading.text = "SplashDemo"
        heading.font = .preferredFont(forTextStyle: .largeTitle)
        summary.font = .monospacedSystemFont(ofSize: UIFont.preferredFont(forTextStyle: .footnote).pointSize, weight: .regular)
        summary.numberOfLines = 0
        let stack = UIStackView(arrangedSubviews: [heading, summary])
        stack.axis = .vertical
        stack.alignment = .leading
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        let area = view.safeAreaLayoutGuide
        NSLayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: area.leadingAnchor, constant: 16),
            stack.trailingAnchor.constraint(lessThanOrEqualTo: area.trailingAnchor, constant: -16),
            stack.centerYAnchor.constraint(equalTo: area.centerYAnchor),
        ])
        summary.text = DemoStatus.shared.summary
        DemoStatus.shared.onChange = { [weak self] text in self?.summary.text = text }
    }
}
