// How an installed wgk finds its prefix from its own file (core/install_layout.h).
#include <gtest/gtest.h>

#include "core/install_layout.h"

namespace fs = std::filesystem;
using wgk::install::prefixOf;

TEST(InstallLayout, PrefixOfALibraryOrCommandFolder) {
  EXPECT_EQ(prefixOf("/opt/wgk/lib", "lib", "bin"), fs::path("/opt/wgk"));
  EXPECT_EQ(prefixOf("/opt/wgk/bin", "lib", "bin"), fs::path("/opt/wgk"));
  EXPECT_EQ(prefixOf("/usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu", "bin"), fs::path("/usr"));
  EXPECT_EQ(prefixOf("/site/wgk/lib", "lib/", "bin"), fs::path("/site/wgk"));
  EXPECT_EQ(prefixOf("/lib", "lib", "bin"), fs::path("/"));  // a prefix of /
}

TEST(InstallLayout, NoPrefixOutsideAnInstallLayout) {
  EXPECT_FALSE(prefixOf("/work/wgk/build", "lib", "bin"));
  EXPECT_FALSE(prefixOf("/work/wgk/build/src", "lib", "bin"));
  EXPECT_FALSE(prefixOf("/usr/lib", "lib/x86_64-linux-gnu", "bin"));  // only part of the tail
  EXPECT_FALSE(prefixOf("lib", "lib", "bin"));                        // nothing precedes it
  EXPECT_FALSE(prefixOf("/opt/mylib", "lib", "bin"));                 // whole names only
}

TEST(InstallLayout, ThisTestIsNotInAPrefix) {
  // The test binary runs from the build tree: its module file is known, its prefix is not.
  EXPECT_FALSE(wgk::install::moduleFile().empty());
  EXPECT_TRUE(fs::exists(wgk::install::moduleFile()));
  EXPECT_FALSE(wgk::install::prefix());
  EXPECT_FALSE(wgk::install::packagesDir());
}
