// Reading function addresses out of an ELF file's static symbol table (.symtab).
//
// dawn.node (npm webgpu@0.6.2) exports only N-API entry points; its WebGPU C functions are local
// symbols, still listed in .symtab. The loader reads their offsets here and adds the load base.
// Pure file parsing, no dlopen: every offset and size is bounds-checked, so a truncated, foreign
// or stripped file gives Error(Setup) naming the file, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace wgk::gpu {

// Offsets (relative to the load base) of the wanted names that are defined functions (STT_FUNC,
// non-zero value, defined section). Names absent from the table are simply not in the result.
// Throws Error(Setup) when the file is missing or unreadable, is not a 64-bit ELF for this machine,
// is malformed, or has no .symtab (stripped).
std::unordered_map<std::string, uint64_t> readElfFunctionSymbols(const std::string& path,
                                                                 const std::vector<std::string>& wanted);

}  // namespace wgk::gpu
