#include "core/json_read.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "wgk/error.h"

namespace wgk {
namespace {

// Tracks open objects (their keys so far) and the path to the current value, for the callback.
struct KeyTracker {
  const std::string& what;
  std::vector<std::set<std::string>> keys;

  [[noreturn]] void fail(const std::string& message) const {
    throw Error(ErrorCode::Parse, what + ": " + message);
  }

  template <class J>
  bool onEvent(int depth, nlohmann::detail::parse_event_t ev, J& parsed) {
    using E = nlohmann::detail::parse_event_t;
    switch (ev) {
      case E::object_start:
      case E::array_start:
        if (depth >= kMaxJsonDepth)
          fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        if (ev == E::object_start) keys.emplace_back();
        break;
      case E::object_end:
        if (!keys.empty()) keys.pop_back();
        break;
      case E::key:
        if (!keys.empty() && !keys.back().insert(parsed.template get<std::string>()).second)
          fail("duplicate key '" + parsed.template get<std::string>() + "' in an object");
        break;
      default:
        break;
    }
    return true;
  }
};

template <class J>
J parseWith(std::string_view text, const std::string& what, bool allowExceptions) {
  KeyTracker tracker{what, {}};
  auto cb = [&](int depth, nlohmann::detail::parse_event_t ev, J& parsed) {
    return tracker.onEvent(depth, ev, parsed);
  };
  try {
    return J::parse(text.begin(), text.end(), cb, allowExceptions);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCode::Parse, what + " is not valid JSON: " + e.what());
  }
}

std::string readText(const std::string& file) {
  // Only regular files: /dev/zero or a FIFO would be read forever.
  std::error_code ec;
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    throw Error(ErrorCode::Io, "'" + file + "' is not a regular file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot open '" + file + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(ErrorCode::Io, "cannot read '" + file + "'");
  return ss.str();
}

}  // namespace

nlohmann::json parseJson(std::string_view text, const std::string& what) {
  return parseWith<nlohmann::json>(text, what, true);
}

nlohmann::ordered_json parseOrderedJson(std::string_view text, const std::string& what) {
  return parseWith<nlohmann::ordered_json>(text, what, true);
}

nlohmann::json parseJsonOrDiscarded(std::string_view text, const std::string& what) {
  return parseWith<nlohmann::json>(text, what, false);
}

nlohmann::json readJsonFile(const std::string& file) {
  return parseJson(readText(file), "'" + file + "'");
}

nlohmann::ordered_json readOrderedJsonFile(const std::string& file) {
  return parseOrderedJson(readText(file), "'" + file + "'");
}

}  // namespace wgk
