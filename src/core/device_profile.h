// DeviceProfile now lives in the public header wgk/device.h; this private path stays for the layers.
#pragma once

#include "wgk/device.h"
