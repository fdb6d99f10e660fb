#include "core/json_read.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>
#include <vector>

#include "wgk/error.h"

namespace wgk {
namespace {

// ordered_json's object is a vector of pairs (nlohmann::ordered_map, which names it Container);
// json's is a std::map.
template <class T, class = void>
struct IsVectorBacked : std::false_type {};
template <class T>
struct IsVectorBacked<T, std::void_t<typename T::Container>> : std::true_type {};

// Builds the document from SAX events. nlohmann's own builders look every key up in the object
// being filled (operator[]); for ordered_json that lookup is a linear scan, so an object of n keys
// took O(n^2) (a metadata.json of 100,000 digests: 22 s). Here a key is appended without a lookup
// (duplicates are caught by a per-object set, O(log n)), and the budgets are enforced before each
// allocation: depth before a container opens, the key count before a key is stored.
template <class J>
class DomBuilder {
 public:
  using Str = typename J::string_t;
  explicit DomBuilder(const std::string& what) : what_(what) {}

  J root;
  std::optional<std::string> syntaxError;  // set by parse_error

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(typename J::number_integer_t v) { return put(v); }
  bool number_unsigned(typename J::number_unsigned_t v) { return put(v); }
  bool number_float(typename J::number_float_t v, const Str&) { return put(v); }
  bool string(Str& v) { return put(std::move(v)); }
  bool binary(typename J::binary_t& v) { return put(J::binary(std::move(v))); }

  bool start_object(std::size_t) { return open(J::object()); }
  bool start_array(std::size_t) { return open(J::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(Str& k) {
    Frame& f = frames_.back();
    if (++f.keys > kMaxJsonObjectKeys)
      fail("an object holds more than " + std::to_string(kMaxJsonObjectKeys) + " keys (kMaxJsonObjectKeys)");
    auto& obj = f.value->template get_ref<typename J::object_t&>();
    if constexpr (IsVectorBacked<typename J::object_t>::value) {
      // A vector: append without ordered_map's linear search, after a logarithmic duplicate check.
      if (!f.seen.insert(k).second) fail("duplicate key '" + k + "' in an object");
      auto& items = static_cast<typename J::object_t::Container&>(obj);
      items.emplace_back(std::move(k), nullptr);
      slot_ = &items.back().second;
    } else {
      auto [it, inserted] = obj.emplace(k, nullptr);
      if (!inserted) fail("duplicate key '" + k + "' in an object");
      slot_ = &it->second;
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    syntaxError = e.what();
    return false;
  }

 private:
  struct Frame {
    J* value;
    size_t keys = 0;
    std::set<Str> seen;  // ordered_json only: its object cannot tell a duplicate cheaply
  };

  [[noreturn]] void fail(const std::string& message) const {
    throw Error(ErrorCode::Parse, what_ + ": " + message);
  }

  // Stores v where the next value goes and returns its address. Pointers into the parent stay
  // valid while a child is open: the parent grows only after the child closes.
  template <class V>
  J* place(V&& v) {
    if (frames_.empty()) {
      root = J(std::forward<V>(v));
      return &root;
    }
    J& top = *frames_.back().value;
    if (top.is_array()) {
      auto& arr = top.template get_ref<typename J::array_t&>();
      arr.emplace_back(std::forward<V>(v));
      return &arr.back();
    }
    *slot_ = J(std::forward<V>(v));
    return slot_;
  }
  template <class V>
  bool put(V&& v) {
    place(std::forward<V>(v));
    return true;
  }
  bool open(J empty) {
    if (frames_.size() >= static_cast<size_t>(kMaxJsonDepth))
      fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    frames_.push_back(Frame{place(std::move(empty))});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }

  const std::string& what_;
  std::vector<Frame> frames_;
  J* slot_ = nullptr;
};

void checkSize(size_t bytes, const std::string& what) {
  if (bytes > kMaxJsonBytes)
    throw Error(ErrorCode::Parse, what + ": JSON text of " + std::to_string(bytes) +
                                      " bytes exceeds the limit of " + std::to_string(kMaxJsonBytes) +
                                      " bytes (kMaxJsonBytes)");
}

template <class J>
J parseWith(std::string_view text, const std::string& what, bool allowExceptions) {
  checkSize(text.size(), what);
  DomBuilder<J> builder(what);
  if (J::sax_parse(text.begin(), text.end(), &builder)) return std::move(builder.root);
  if (!allowExceptions) return J(J::value_t::discarded);
  throw Error(ErrorCode::Parse, what + " is not valid JSON: " + builder.syntaxError.value_or("syntax error"));
}

std::string readText(const std::string& file) {
  // Only regular files: /dev/zero or a FIFO would be read forever.
  std::error_code ec;
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    throw Error(ErrorCode::Io, "'" + file + "' is not a regular file");
  // The size budget holds before the text is read into memory.
  const auto size = std::filesystem::file_size(file, ec);
  if (!ec) checkSize(size, "'" + file + "'");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot open '" + file + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(ErrorCode::Io, "cannot read '" + file + "'");
  std::string text = ss.str();
  checkSize(text.size(), "'" + file + "'");  // a file that grew while it was read
  return text;
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
