//===- Status.h - Errors as values, without LLVM ----------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The runtime and the public API must not expose LLVM or MLIR types, and must
// never abort on user input: every failure is a Status with a one-line
// message, and a value-or-error is a Result<T>.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_SUPPORT_STATUS_H
#define LOOM_SUPPORT_STATUS_H

#include <optional>
#include <string>
#include <utility>

namespace loom {

/// Success, or a failure with a one-line message.
class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.message_ = std::move(message);
    s.failed_ = true;
    return s;
  }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string &message() const { return message_; }

private:
  bool failed_ = false;
  std::string message_;
};

/// A value, or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status status) : status_(std::move(status)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status &status() const { return status_; }
  const std::string &message() const { return status_.message(); }

  T &operator*() { return *value_; }
  const T &operator*() const { return *value_; }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }
  /// Moves the value out; only valid when ok().
  T take() { return std::move(*value_); }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace loom

#endif // LOOM_SUPPORT_STATUS_H
