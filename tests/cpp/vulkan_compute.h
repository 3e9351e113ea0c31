// Runs one SPIR-V compute shader on a Vulkan device, for tests that execute generated
// HLSL (compiled to SPIR-V by glslangValidator) on a CPU implementation such as Mesa's
// lavapipe. The Vulkan loader is opened at run time (dlopen), so a test including this
// compiles wherever <vulkan/vulkan.h> exists and reports "no Vulkan" where the loader or
// a device is missing; no link-time dependency.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace vkc {

/// One buffer of the shader: its descriptor binding (set 0), whether it is a uniform
/// buffer (else a storage buffer), and its bytes (read back after the dispatch).
struct Binding {
    uint32_t Slot = 0;
    bool Uniform = false;
    std::vector<uint8_t> Bytes;
};

/// Dispatches `Spirv` (entry point "main") with `GroupsX` x 1 x 1 workgroups over
/// `Bindings`; returns "" on success, else why it could not run (and sets `Unavailable`
/// when the reason is that this machine has no Vulkan loader or device).
inline std::string Run(const std::vector<uint32_t>& Spirv, std::vector<Binding>& Bindings, uint32_t GroupsX, bool& Unavailable, std::string* DeviceName = nullptr) {
    Unavailable = false;
    void* Lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!Lib) {
        Unavailable = true;
        return "libvulkan.so.1 not found";
    }
    auto GetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(Lib, "vkGetInstanceProcAddr"));
    if (!GetInstanceProcAddr) {
        Unavailable = true;
        dlclose(Lib);
        return "vkGetInstanceProcAddr not found";
    }
#define VKC_GLOBAL(Name) auto Name = reinterpret_cast<PFN_##Name>(GetInstanceProcAddr(VK_NULL_HANDLE, #Name))
    VKC_GLOBAL(vkCreateInstance);
#undef VKC_GLOBAL
    VkApplicationInfo App{};
    App.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    App.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo InstanceInfo{};
    InstanceInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    InstanceInfo.pApplicationInfo = &App;
    VkInstance Instance = VK_NULL_HANDLE;
    if (!vkCreateInstance || vkCreateInstance(&InstanceInfo, nullptr, &Instance) != VK_SUCCESS) {
        Unavailable = true;
        dlclose(Lib);
        return "vkCreateInstance failed (no Vulkan driver)";
    }
#define VKC_INSTANCE(Name) auto Name = reinterpret_cast<PFN_##Name>(GetInstanceProcAddr(Instance, #Name))
    VKC_INSTANCE(vkDestroyInstance);
    VKC_INSTANCE(vkEnumeratePhysicalDevices);
    VKC_INSTANCE(vkGetPhysicalDeviceProperties);
    VKC_INSTANCE(vkGetPhysicalDeviceQueueFamilyProperties);
    VKC_INSTANCE(vkGetPhysicalDeviceMemoryProperties);
    VKC_INSTANCE(vkCreateDevice);
    VKC_INSTANCE(vkGetDeviceProcAddr);
#undef VKC_INSTANCE
    std::string Error;
    uint32_t NumDevices = 0;
    vkEnumeratePhysicalDevices(Instance, &NumDevices, nullptr);
    std::vector<VkPhysicalDevice> Devices(NumDevices);
    if (NumDevices > 0) vkEnumeratePhysicalDevices(Instance, &NumDevices, Devices.data());
    VkPhysicalDevice Physical = VK_NULL_HANDLE;
    uint32_t Family = 0;
    for (VkPhysicalDevice D : Devices) {
        uint32_t NumFamilies = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(D, &NumFamilies, nullptr);
        std::vector<VkQueueFamilyProperties> Families(NumFamilies);
        vkGetPhysicalDeviceQueueFamilyProperties(D, &NumFamilies, Families.data());
        for (uint32_t f = 0; f < NumFamilies && Physical == VK_NULL_HANDLE; ++f)
            if (Families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                Physical = D;
                Family = f;
            }
        if (Physical != VK_NULL_HANDLE) break;
    }
    if (Physical == VK_NULL_HANDLE) {
        vkDestroyInstance(Instance, nullptr);
        dlclose(Lib);
        Unavailable = true;
        return "no Vulkan device with a compute queue";
    }
    VkPhysicalDeviceProperties Properties{};
    vkGetPhysicalDeviceProperties(Physical, &Properties);
    if (DeviceName) *DeviceName = Properties.deviceName;
    const float Priority = 1.0f;
    VkDeviceQueueCreateInfo QueueInfo{};
    QueueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    QueueInfo.queueFamilyIndex = Family;
    QueueInfo.queueCount = 1;
    QueueInfo.pQueuePriorities = &Priority;
    VkDeviceCreateInfo DeviceInfo{};
    DeviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    DeviceInfo.queueCreateInfoCount = 1;
    DeviceInfo.pQueueCreateInfos = &QueueInfo;
    VkDevice Device = VK_NULL_HANDLE;
    if (vkCreateDevice(Physical, &DeviceInfo, nullptr, &Device) != VK_SUCCESS) {
        vkDestroyInstance(Instance, nullptr);
        dlclose(Lib);
        return "vkCreateDevice failed";
    }
#define VKC_DEVICE(Name) auto Name = reinterpret_cast<PFN_##Name>(vkGetDeviceProcAddr(Device, #Name))
    VKC_DEVICE(vkDestroyDevice);
    VKC_DEVICE(vkGetDeviceQueue);
    VKC_DEVICE(vkCreateBuffer);
    VKC_DEVICE(vkDestroyBuffer);
    VKC_DEVICE(vkGetBufferMemoryRequirements);
    VKC_DEVICE(vkAllocateMemory);
    VKC_DEVICE(vkFreeMemory);
    VKC_DEVICE(vkBindBufferMemory);
    VKC_DEVICE(vkMapMemory);
    VKC_DEVICE(vkUnmapMemory);
    VKC_DEVICE(vkCreateShaderModule);
    VKC_DEVICE(vkDestroyShaderModule);
    VKC_DEVICE(vkCreateDescriptorSetLayout);
    VKC_DEVICE(vkDestroyDescriptorSetLayout);
    VKC_DEVICE(vkCreatePipelineLayout);
    VKC_DEVICE(vkDestroyPipelineLayout);
    VKC_DEVICE(vkCreateComputePipelines);
    VKC_DEVICE(vkDestroyPipeline);
    VKC_DEVICE(vkCreateDescriptorPool);
    VKC_DEVICE(vkDestroyDescriptorPool);
    VKC_DEVICE(vkAllocateDescriptorSets);
    VKC_DEVICE(vkUpdateDescriptorSets);
    VKC_DEVICE(vkCreateCommandPool);
    VKC_DEVICE(vkDestroyCommandPool);
    VKC_DEVICE(vkAllocateCommandBuffers);
    VKC_DEVICE(vkBeginCommandBuffer);
    VKC_DEVICE(vkEndCommandBuffer);
    VKC_DEVICE(vkCmdBindPipeline);
    VKC_DEVICE(vkCmdBindDescriptorSets);
    VKC_DEVICE(vkCmdDispatch);
    VKC_DEVICE(vkQueueSubmit);
    VKC_DEVICE(vkQueueWaitIdle);
#undef VKC_DEVICE
    VkPhysicalDeviceMemoryProperties Memory{};
    vkGetPhysicalDeviceMemoryProperties(Physical, &Memory);

    const std::size_t N = Bindings.size();
    std::vector<VkBuffer> Buffers(N, VK_NULL_HANDLE);
    std::vector<VkDeviceMemory> Memories(N, VK_NULL_HANDLE);
    std::vector<VkDescriptorSetLayoutBinding> LayoutBindings(N);
    for (std::size_t b = 0; b < N && Error.empty(); ++b) {
        const VkDeviceSize Size = Bindings[b].Bytes.empty() ? 16 : static_cast<VkDeviceSize>(Bindings[b].Bytes.size());
        VkBufferCreateInfo BufferInfo{};
        BufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        BufferInfo.size = Size;
        BufferInfo.usage = Bindings[b].Uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        BufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        if (vkCreateBuffer(Device, &BufferInfo, nullptr, &Buffers[b]) != VK_SUCCESS) {
            Error = "vkCreateBuffer failed";
            break;
        }
        VkMemoryRequirements Needs{};
        vkGetBufferMemoryRequirements(Device, Buffers[b], &Needs);
        const VkMemoryPropertyFlags Want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        uint32_t Type = UINT32_MAX;
        for (uint32_t t = 0; t < Memory.memoryTypeCount && Type == UINT32_MAX; ++t)
            if ((Needs.memoryTypeBits & (1u << t)) && (Memory.memoryTypes[t].propertyFlags & Want) == Want) Type = t;
        VkMemoryAllocateInfo Allocate{};
        Allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        Allocate.allocationSize = Needs.size;
        Allocate.memoryTypeIndex = Type;
        void* Mapped = nullptr;
        if (Type == UINT32_MAX || vkAllocateMemory(Device, &Allocate, nullptr, &Memories[b]) != VK_SUCCESS ||
            vkBindBufferMemory(Device, Buffers[b], Memories[b], 0) != VK_SUCCESS ||
            vkMapMemory(Device, Memories[b], 0, Size, 0, &Mapped) != VK_SUCCESS) {
            Error = "no host-visible memory for a buffer";
            break;
        }
        std::memset(Mapped, 0, static_cast<std::size_t>(Size));
        if (!Bindings[b].Bytes.empty()) std::memcpy(Mapped, Bindings[b].Bytes.data(), Bindings[b].Bytes.size());
        vkUnmapMemory(Device, Memories[b]);
        LayoutBindings[b].binding = Bindings[b].Slot;
        LayoutBindings[b].descriptorType = Bindings[b].Uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        LayoutBindings[b].descriptorCount = 1;
        LayoutBindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }

    VkShaderModule Module = VK_NULL_HANDLE;
    VkDescriptorSetLayout SetLayout = VK_NULL_HANDLE;
    VkPipelineLayout PipelineLayout = VK_NULL_HANDLE;
    VkPipeline Pipeline = VK_NULL_HANDLE;
    VkDescriptorPool Pool = VK_NULL_HANDLE;
    VkCommandPool CommandPool = VK_NULL_HANDLE;
    if (Error.empty()) {
        VkShaderModuleCreateInfo ModuleInfo{};
        ModuleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
        ModuleInfo.codeSize = Spirv.size() * sizeof(uint32_t);
        ModuleInfo.pCode = Spirv.data();
        VkDescriptorSetLayoutCreateInfo SetLayoutInfo{};
        SetLayoutInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
        SetLayoutInfo.bindingCount = static_cast<uint32_t>(N);
        SetLayoutInfo.pBindings = LayoutBindings.data();
        if (vkCreateShaderModule(Device, &ModuleInfo, nullptr, &Module) != VK_SUCCESS ||
            vkCreateDescriptorSetLayout(Device, &SetLayoutInfo, nullptr, &SetLayout) != VK_SUCCESS)
            Error = "vkCreateShaderModule / vkCreateDescriptorSetLayout failed";
    }
    if (Error.empty()) {
        VkPipelineLayoutCreateInfo LayoutInfo{};
        LayoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
        LayoutInfo.setLayoutCount = 1;
        LayoutInfo.pSetLayouts = &SetLayout;
        VkComputePipelineCreateInfo PipelineInfo{};
        PipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
        PipelineInfo.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        PipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        PipelineInfo.stage.module = Module;
        PipelineInfo.stage.pName = "main";
        if (vkCreatePipelineLayout(Device, &LayoutInfo, nullptr, &PipelineLayout) != VK_SUCCESS) {
            Error = "vkCreatePipelineLayout failed";
        } else {
            PipelineInfo.layout = PipelineLayout;
            if (vkCreateComputePipelines(Device, VK_NULL_HANDLE, 1, &PipelineInfo, nullptr, &Pipeline) != VK_SUCCESS)
                Error = "vkCreateComputePipelines failed";
        }
    }
    if (Error.empty()) {
        VkDescriptorPoolSize Sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, static_cast<uint32_t>(N)},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<uint32_t>(N)}};
        VkDescriptorPoolCreateInfo PoolInfo{};
        PoolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
        PoolInfo.maxSets = 1;
        PoolInfo.poolSizeCount = 2;
        PoolInfo.pPoolSizes = Sizes;
        VkDescriptorSet Set = VK_NULL_HANDLE;
        VkDescriptorSetAllocateInfo SetInfo{};
        SetInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
        SetInfo.descriptorSetCount = 1;
        SetInfo.pSetLayouts = &SetLayout;
        if (vkCreateDescriptorPool(Device, &PoolInfo, nullptr, &Pool) != VK_SUCCESS ||
            (SetInfo.descriptorPool = Pool, vkAllocateDescriptorSets(Device, &SetInfo, &Set)) != VK_SUCCESS) {
            Error = "descriptor set allocation failed";
        } else {
            std::vector<VkDescriptorBufferInfo> Infos(N);
            std::vector<VkWriteDescriptorSet> Writes(N);
            for (std::size_t b = 0; b < N; ++b) {
                Infos[b].buffer = Buffers[b];
                Infos[b].offset = 0;
                Infos[b].range = VK_WHOLE_SIZE;
                Writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
                Writes[b].dstSet = Set;
                Writes[b].dstBinding = Bindings[b].Slot;
                Writes[b].descriptorCount = 1;
                Writes[b].descriptorType = LayoutBindings[b].descriptorType;
                Writes[b].pBufferInfo = &Infos[b];
            }
            vkUpdateDescriptorSets(Device, static_cast<uint32_t>(N), Writes.data(), 0, nullptr);
            VkCommandPoolCreateInfo CommandPoolInfo{};
            CommandPoolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
            CommandPoolInfo.queueFamilyIndex = Family;
            VkCommandBuffer Commands = VK_NULL_HANDLE;
            VkCommandBufferAllocateInfo CommandInfo{};
            CommandInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
            CommandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            CommandInfo.commandBufferCount = 1;
            VkCommandBufferBeginInfo Begin{};
            Begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
            if (vkCreateCommandPool(Device, &CommandPoolInfo, nullptr, &CommandPool) != VK_SUCCESS ||
                (CommandInfo.commandPool = CommandPool, vkAllocateCommandBuffers(Device, &CommandInfo, &Commands)) != VK_SUCCESS ||
                vkBeginCommandBuffer(Commands, &Begin) != VK_SUCCESS) {
                Error = "command buffer allocation failed";
            } else {
                vkCmdBindPipeline(Commands, VK_PIPELINE_BIND_POINT_COMPUTE, Pipeline);
                vkCmdBindDescriptorSets(Commands, VK_PIPELINE_BIND_POINT_COMPUTE, PipelineLayout, 0, 1, &Set, 0, nullptr);
                vkCmdDispatch(Commands, GroupsX, 1, 1);
                VkSubmitInfo Submit{};
                Submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
                Submit.commandBufferCount = 1;
                Submit.pCommandBuffers = &Commands;
                VkQueue Queue = VK_NULL_HANDLE;
                vkGetDeviceQueue(Device, Family, 0, &Queue);
                if (vkEndCommandBuffer(Commands) != VK_SUCCESS || vkQueueSubmit(Queue, 1, &Submit, VK_NULL_HANDLE) != VK_SUCCESS ||
                    vkQueueWaitIdle(Queue) != VK_SUCCESS)
                    Error = "the dispatch failed";
            }
        }
    }
    for (std::size_t b = 0; b < N && Error.empty(); ++b) {
        void* Mapped = nullptr;
        if (Bindings[b].Bytes.empty()) continue;
        if (vkMapMemory(Device, Memories[b], 0, static_cast<VkDeviceSize>(Bindings[b].Bytes.size()), 0, &Mapped) != VK_SUCCESS) {
            Error = "vkMapMemory failed on read-back";
            break;
        }
        std::memcpy(Bindings[b].Bytes.data(), Mapped, Bindings[b].Bytes.size());
        vkUnmapMemory(Device, Memories[b]);
    }
    if (CommandPool != VK_NULL_HANDLE) vkDestroyCommandPool(Device, CommandPool, nullptr);
    if (Pool != VK_NULL_HANDLE) vkDestroyDescriptorPool(Device, Pool, nullptr);
    if (Pipeline != VK_NULL_HANDLE) vkDestroyPipeline(Device, Pipeline, nullptr);
    if (PipelineLayout != VK_NULL_HANDLE) vkDestroyPipelineLayout(Device, PipelineLayout, nullptr);
    if (SetLayout != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(Device, SetLayout, nullptr);
    if (Module != VK_NULL_HANDLE) vkDestroyShaderModule(Device, Module, nullptr);
    for (std::size_t b = 0; b < N; ++b) {
        if (Buffers[b] != VK_NULL_HANDLE) vkDestroyBuffer(Device, Buffers[b], nullptr);
        if (Memories[b] != VK_NULL_HANDLE) vkFreeMemory(Device, Memories[b], nullptr);
    }
    vkDestroyDevice(Device, nullptr);
    vkDestroyInstance(Instance, nullptr);
    dlclose(Lib);
    return Error;
}

} // namespace vkc
