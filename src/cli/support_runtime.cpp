#include "cli/support_runtime.h"

#include <algorithm>
#include <filesystem>

#include "core/shape_text.h"
#include "package/package.h"
#include "runtime/attributes.h"
#include "wgk/error.h"

namespace wgk::cli {

std::shared_ptr<Runtime> openRuntime(const HubCliOptions& hub, const std::string& tuningFile) {
  RuntimeOptions o = hub.runtime;  // the flags; the environment fills the rest
  o.tuningFile = tuningFile;
  return Runtime::create(RuntimeOptions::fromEnvironment(o));
}

LoadOptions loadOptionsFor(const HubCliOptions& hub) {
  LoadOptions o;
  o.version = hub.version;
  o.revision = hub.revision;
  return o;
}

std::vector<std::string> embeddedPackageRepos() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& org : fs::directory_iterator(defaultPackagesDir(), ec))
    if (org.is_directory())
      for (const auto& pkg : fs::directory_iterator(org.path(), ec))
        if (package::findWebgpuDir(pkg.path()))
          out.push_back(org.path().filename().string() + "/" + pkg.path().filename().string());
  std::sort(out.begin(), out.end());
  if (out.empty())
    throw Error(ErrorCode::NotFound,
                "no embedded packages under " + defaultPackagesDir() + " (set WGK_PACKAGES)");
  return out;
}

std::pair<std::string, std::string> splitAssignment(const std::string& text, const std::string& what) {
  auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw Error(ErrorCode::InvalidArgument, what + " '" + text + "' must be written NAME=VALUE");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::map<std::string, Attribute> parseAttributes(const std::vector<std::string>& assignments) {
  std::map<std::string, Attribute> out;
  for (const auto& a : assignments) {
    auto [name, value] = runtime::parseAttributeAssignment(a);
    if (!out.emplace(name, value).second)
      throw Error(ErrorCode::InvalidArgument, "attribute '" + name + "' is given twice");
  }
  return out;
}

namespace {
// The short spelling of each dtype (the order of cliDtypeNames' list).
constexpr std::pair<DType, std::string_view> kShortNames[] = {
    {DType::Float32, "f32"}, {DType::Float16, "f16"}, {DType::Int32, "i32"},
    {DType::Uint32, "u32"},  {DType::Int8, "i8"},     {DType::Uint8, "u8"},
    {DType::Int16, "i16"},   {DType::Int64, "i64"},   {DType::Bool, "bool"},
};
}  // namespace

std::string sourceLabel(const std::string& origin, const std::string& revision) {
  if (revision.empty()) return origin;
  const std::string prefix = origin + ":";
  if (origin == "embedded" && revision.rfind(prefix, 0) == 0)
    return "embedded copy " + revision.substr(prefix.size());
  return origin + " " + revision;
}

std::optional<DType> dtypeFromCliName(std::string_view name) {
  if (auto t = dtypeFromName(name)) return t;
  for (const auto& [t, shortName] : kShortNames)
    if (shortName == name) return t;
  return std::nullopt;
}

std::string cliDtypeNames() {
  std::string out;
  for (const auto& [t, shortName] : kShortNames) {
    const std::string_view full = dtypeName(t);
    out += (out.empty() ? "" : ", ") + std::string(full) +
           (full == shortName ? "" : " (" + std::string(shortName) + ")");
  }
  return out;
}

}  // namespace wgk::cli
