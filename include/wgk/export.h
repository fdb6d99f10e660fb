// wgk/export.h — WGK_API marks what libwgk.so exports: the classes and functions of include/wgk/.
//
// libwgk.so is built with hidden visibility (-fvisibility=hidden -fvisibility-inlines-hidden), so
// nothing else in it (the layers' internals, the copies of nlohmann/json, fmt and std templates it
// instantiates) is visible to a program that links it; as fmt's FMT_API, the macro is a plain
// attribute in every translation unit, the library's own and its users'.
//
//   class WGK_API Runtime { ... };          // every member, its typeinfo and vtable exported
//   WGK_API std::string_view dtypeName(DType t);
//
// tests/unit/layering checks it: every symbol libwgk.so exports belongs to a class or function
// declared here in include/wgk/.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define WGK_API __attribute__((visibility("default")))
#else
#define WGK_API
#endif
