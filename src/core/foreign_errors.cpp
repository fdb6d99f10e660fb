#include "core/foreign_errors.h"

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace wgk {

namespace {

// "filesystem error: cannot create directories: Permission denied [/a] [/b]" ->
// "cannot create directories: Permission denied: /a, /b".
std::string filesystemMessage(const std::filesystem::filesystem_error& e) {
  std::string text = e.what();
  const std::string prefix = "filesystem error: ";
  if (text.rfind(prefix, 0) == 0) text = text.substr(prefix.size());
  if (auto bracket = text.find(" ["); bracket != std::string::npos) text = text.substr(0, bracket);
  std::string paths;
  for (const auto* p : {&e.path1(), &e.path2()})
    if (!p->empty()) paths += (paths.empty() ? "" : ", ") + p->string();
  return paths.empty() ? text : text + ": " + paths;
}

}  // namespace

void rethrowAsWgkError() {
  try {
    throw;
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error(ErrorCode::Io, filesystemMessage(e));
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(ErrorCode::Parse, std::string("not valid JSON: ") + e.what());
  } catch (const nlohmann::json::exception& e) {
    // type_error, out_of_range, invalid_iterator: a document that does not have the shape asked of it.
    throw Error(ErrorCode::Manifest, std::string("unexpected JSON: ") + e.what());
  }
}

void throwOutOfHostMemory(ErrorCode code, const std::string& what) {
  throw Error(code, "ran out of host memory " + what +
                        " (std::bad_alloc): the input asks for more than this machine can hold; see the "
                        "budgets in docs/reliability.md");
}

}  // namespace wgk
