// addEnableDirectives: f16 and subgroups detection outside comments, existing directives kept.
#include "template_util.h"

namespace wgk::templates {
namespace {

TEST(EnableDirectives, F16Uses) {
  EXPECT_EQ(addEnableDirectives("var<storage> x: array<f16>;"), "enable f16;\nvar<storage> x: array<f16>;");
  EXPECT_EQ(addEnableDirectives("let v: vec4<f16> = vec4(0);"), "enable f16;\nlet v: vec4<f16> = vec4(0);");
  EXPECT_EQ(addEnableDirectives("let a = 1.0h;"), "enable f16;\nlet a = 1.0h;");
  EXPECT_EQ(addEnableDirectives("let a = 2h;"), "enable f16;\nlet a = 2h;");
  EXPECT_EQ(addEnableDirectives("let a = 1e-3h;"), "enable f16;\nlet a = 1e-3h;");
  EXPECT_EQ(addEnableDirectives("let a = .5h;"), "enable f16;\nlet a = .5h;");
  EXPECT_EQ(addEnableDirectives("let v = vec4h(0);"), "enable f16;\nlet v = vec4h(0);");
  EXPECT_EQ(addEnableDirectives("let m: mat2x2h;"), "enable f16;\nlet m: mat2x2h;");
}

TEST(EnableDirectives, NotFooledByCommentsIdentifiersOrOtherLiterals) {
  for (const char* code :
       {"let myf16var = 1.0;", "let f16x = 1;", "// uses f16 later\nlet a = 1.0;",
        "/* f16 /* nested */ subgroupAdd */ let a = 1;", "let a = 0x1f;", "let a = 1.0f;",
        "let a = 3u; let b = 2i;", "let h = 1; let vec4hx = 2;", "fn mysubgroupAdd() {}"}) {
    EXPECT_EQ(addEnableDirectives(code), code) << code;
  }
}

TEST(EnableDirectives, Subgroups) {
  for (const char* use : {"subgroupAdd(x)", "subgroupShuffleXor(x, 1u)", "subgroupBroadcast(x, 0u)",
                          "subgroupExclusiveAdd(x)", "subgroupBallot(true)", "subgroupMax(x)"})
    EXPECT_EQ(addEnableDirectives(std::string("let s = ") + use + ";"),
              std::string("enable subgroups;\nlet s = ") + use + ";");
  EXPECT_EQ(
      addEnableDirectives("fn m(@builtin(subgroup_invocation_id) i: u32, @builtin(subgroup_size) n: u32) {}"),
      "enable subgroups;\nfn m(@builtin(subgroup_invocation_id) i: u32, @builtin(subgroup_size) n: u32) {}");
}

TEST(EnableDirectives, BothAndAlreadyDeclared) {
  EXPECT_EQ(addEnableDirectives("let a: f16 = subgroupAdd(1.0h);"),
            "enable f16;\nenable subgroups;\nlet a: f16 = subgroupAdd(1.0h);");
  const char* declared = "enable f16;\nenable subgroups;\nlet a: f16 = subgroupAdd(1.0h);";
  EXPECT_EQ(addEnableDirectives(declared), declared);
  const char* combined = "enable f16, subgroups;\nlet a: f16 = subgroupAdd(1.0h);";
  EXPECT_EQ(addEnableDirectives(combined), combined);
  EXPECT_EQ(addEnableDirectives("enable f16;\nlet a = subgroupAdd(1.0h);"),
            "enable subgroups;\nenable f16;\nlet a = subgroupAdd(1.0h);");
  // Directives stay before declarations: the new ones go first, ahead of `requires`/`diagnostic`.
  EXPECT_EQ(addEnableDirectives("requires subgroup_id;\nlet a: f16 = 1.0h;"),
            "enable f16;\nrequires subgroup_id;\nlet a: f16 = 1.0h;");
  EXPECT_EQ(addEnableDirectives("// enable f16;\nlet a: f16 = 1.0h;"),
            "enable f16;\n// enable f16;\nlet a: f16 = 1.0h;");
  EXPECT_EQ(addEnableDirectives(""), "");
}

}  // namespace
}  // namespace wgk::templates
