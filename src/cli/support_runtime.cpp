#include "cli/support_runtime.h"

#include "runtime/attributes.h"
#include "wgk/error.h"

namespace wgk::cli {

std::shared_ptr<Runtime> openRuntime(const HubCliOptions& hub, const std::string& tuningFile) {
  hub::HubOptions h = hub.toHubOptions();
  RuntimeOptions o;
  o.packagesDir = h.embeddedRoot;
  o.cacheDir = h.cacheDir;
  o.endpoint = h.endpoint;
  o.lockFile = h.lockFile;
  o.offline = h.offline;
  o.trustRemoteCode = h.trustRemoteCode;
  if (h.refsTtlSec) o.refsTtlSec = *h.refsTtlSec;
  o.tuningFile = tuningFile;
  return Runtime::create(o);
}

LoadOptions loadOptionsFor(const HubCliOptions& hub) {
  LoadOptions o;
  o.version = hub.version;
  o.revision = hub.revision;
  return o;
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

std::string shapeText(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace wgk::cli
