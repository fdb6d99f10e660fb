# Links with lld where the compiler accepts -fuse-ld=lld (scripts/setup.sh installs Debian's lld).
# CI links four build trees (ordinary, ASan, TSan, fuzz); ld.bfd took 8.8 s for the ASan
# gpu_runtime_test and lld 2.9 s (docs/setup.md). Directory-scoped: only wgk's own targets link
# this way; nothing reaches the exported targets or a parent project (off unless top level).
option(WGK_USE_LLD "Link wgk's own targets with lld when the compiler accepts -fuse-ld=lld"
       ${PROJECT_IS_TOP_LEVEL})
if(WGK_USE_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" WGK_LLD_WORKS)
  if(WGK_LLD_WORKS)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
