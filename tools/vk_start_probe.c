/* The Vulkan driver's share of a fresh process's start (issue 25 item 5, docs/performance.md):
 * times, in one process, what any Vulkan program pays before its first dispatch, without Dawn or
 * wgk: loading the Vulkan loader, vkCreateInstance (the loader reads the ICD manifests and loads
 * the driver), vkEnumeratePhysicalDevices and vkCreateDevice with one compute queue. Prints one
 * line of milliseconds per stage. Build and run (scripts/h200_start_profile.sh does both when cc is
 * there; here: apt-get install libvulkan-dev for the header):
 *   cc -O2 -o vk_start_probe tools/vk_start_probe.c -ldl && ./vk_start_probe
 */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
#include <vulkan/vulkan.h>

static double nowMs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void) {
  double t0 = nowMs();
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "vk_start_probe: %s\n", dlerror());
    return 1;
  }
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
  PFN_vkCreateInstance createInstance = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  double t1 = nowMs();
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "vk_start_probe", 1, NULL, 0,
                           VK_API_VERSION_1_1};
  VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL};
  VkInstance inst;
  if (createInstance(&ici, NULL, &inst) != VK_SUCCESS) {
    fprintf(stderr, "vk_start_probe: vkCreateInstance failed\n");
    return 1;
  }
  double t2 = nowMs();
  PFN_vkEnumeratePhysicalDevices enumerate =
      (PFN_vkEnumeratePhysicalDevices)gipa(inst, "vkEnumeratePhysicalDevices");
  uint32_t n = 1;
  VkPhysicalDevice phys;
  VkResult r = enumerate(inst, &n, &phys);
  if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
    fprintf(stderr, "vk_start_probe: no physical device\n");
    return 1;
  }
  double t3 = nowMs();
  PFN_vkCreateDevice createDevice = (PFN_vkCreateDevice)gipa(inst, "vkCreateDevice");
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &qci, 0, NULL, 0, NULL, NULL};
  VkDevice dev;
  if (createDevice(phys, &dci, NULL, &dev) != VK_SUCCESS) {
    fprintf(stderr, "vk_start_probe: vkCreateDevice failed\n");
    return 1;
  }
  double t4 = nowMs();
  PFN_vkDestroyDevice destroyDevice = (PFN_vkDestroyDevice)gipa(inst, "vkDestroyDevice");
  PFN_vkDestroyInstance destroyInstance = (PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance");
  destroyDevice(dev, NULL);
  destroyInstance(inst, NULL);
  double t5 = nowMs();
  printf("loader %.1f ms, vkCreateInstance %.1f ms, vkEnumeratePhysicalDevices %.1f ms, vkCreateDevice %.1f ms, "
         "destroy %.1f ms, total %.1f ms\n",
         t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0);
  return 0;
}
