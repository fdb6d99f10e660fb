// Reading a Gemma config.json: the fields wgk uses, each checked against the architecture and
// against limits that keep every later size computation inside 64 bits and the GPU's buffers.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "wgk/model.h"

namespace wgk::model {

// Error(InvalidArgument) naming the field: "config.json: num_key_value_heads (3) must divide
// num_attention_heads (8)". `json` is the parsed config.json.
GemmaConfig parseGemmaConfig(const nlohmann::json& json);
GemmaConfig readGemmaConfig(const std::string& modelDir);  // <dir>/config.json

}  // namespace wgk::model
