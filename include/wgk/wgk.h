// wgk.h — everything a C++ user of wgk needs. See wgk/runtime.h for a usage example.
#pragma once

#include "wgk/batch.h"
#include "wgk/device.h"
#include "wgk/dtype.h"
#include "wgk/error.h"
#include "wgk/model.h"
#include "wgk/runtime.h"
#include "wgk/tensor.h"
