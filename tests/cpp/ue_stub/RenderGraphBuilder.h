#pragma once
// Stand-in for the render graph (RDG) calls the Niagara data interface's proxy makes
// (UE 5.3+ names and signatures). Not RDG: nothing is deferred; a buffer is a byte array
// allocated when it is created, QueueBufferUpload copies into it at once (and counts an
// upload larger than the buffer instead of writing it), and the graph owns the buffers
// and views it handed out until it is destroyed, as RDG does until it executes.
#include "CoreMinimal.h"

#include <memory>

/// UE's TRefCountPtr. Stub: a std::shared_ptr.
template <class T>
class TRefCountPtr {
  public:
    TRefCountPtr() = default;
    explicit TRefCountPtr(std::shared_ptr<T> p) : P(std::move(p)) {}
    T* GetReference() const { return P.get(); }
    T* operator->() const { return P.get(); }
    bool IsValid() const { return P != nullptr; }
    void SafeRelease() { P.reset(); }
    bool operator==(const TRefCountPtr& o) const { return P == o.P; }

  private:
    std::shared_ptr<T> P;
};

struct FRDGBufferDesc {
    uint32 BytesPerElement = 1;
    uint32 NumElements = 1;
    uint64 GetSize() const { return static_cast<uint64>(BytesPerElement) * NumElements; }
    static FRDGBufferDesc CreateStructuredDesc(uint32 BytesPerElement, uint32 NumElements) {
        FRDGBufferDesc D;
        D.BytesPerElement = BytesPerElement;
        D.NumElements = NumElements;
        return D;
    }
};

/// A buffer that outlives a graph. Stub: its bytes.
struct FRDGPooledBuffer {
    FRDGBufferDesc Desc;
    std::vector<uint8> Bytes; ///< stub: the GPU memory
};

class FRDGBuffer {
  public:
    const FRDGBufferDesc Desc;
    const TCHAR* const Name;
    explicit FRDGBuffer(const FRDGBufferDesc& InDesc, const TCHAR* InName, TRefCountPtr<FRDGPooledBuffer> InPooled)
        : Desc(InDesc), Name(InName), Pooled(std::move(InPooled)) {}
    TRefCountPtr<FRDGPooledBuffer> Pooled; ///< stub: the memory behind it
};
using FRDGBufferRef = FRDGBuffer*;

class FRDGBufferSRV {
  public:
    explicit FRDGBufferSRV(FRDGBufferRef InParent) : Parent(InParent) {}
    FRDGBufferRef GetParent() const { return Parent; }

  private:
    FRDGBufferRef Parent;
};
using FRDGBufferSRVRef = FRDGBufferSRV*;

enum class ERDGInitialDataFlags : uint8 { None = 0, NoCopy = 1 };

class FRDGBuilder {
  public:
    FRDGBufferRef CreateBuffer(const FRDGBufferDesc& Desc, const TCHAR* Name) {
        auto Pooled = std::make_shared<FRDGPooledBuffer>();
        Pooled->Desc = Desc;
        Pooled->Bytes.assign(static_cast<std::size_t>(Desc.GetSize()), 0xCD); // RDG does not clear new buffers
        Buffers.push_back(std::make_unique<FRDGBuffer>(Desc, Name, TRefCountPtr<FRDGPooledBuffer>(Pooled)));
        return Buffers.back().get();
    }
    void QueueBufferUpload(FRDGBufferRef Buffer, const void* InitialData, uint64 InitialDataSize,
                           ERDGInitialDataFlags InitialDataFlags = ERDGInitialDataFlags::None) {
        if (!Buffer || !InitialData || InitialDataSize > Buffer->Desc.GetSize()) {
            ++BadUploads;
            return;
        }
        std::memcpy(Buffer->Pooled->Bytes.data(), InitialData, static_cast<std::size_t>(InitialDataSize));
        ++Uploads;
    }
    TRefCountPtr<FRDGPooledBuffer> ConvertToExternalBuffer(FRDGBufferRef Buffer) { return Buffer->Pooled; }
    FRDGBufferRef RegisterExternalBuffer(const TRefCountPtr<FRDGPooledBuffer>& External) {
        for (const auto& B : Buffers)
            if (B->Pooled == External) return B.get();
        Buffers.push_back(std::make_unique<FRDGBuffer>(External->Desc, "External", External));
        return Buffers.back().get();
    }
    FRDGBufferSRVRef CreateSRV(FRDGBufferRef Buffer) {
        Views.push_back(std::make_unique<FRDGBufferSRV>(Buffer));
        return Views.back().get();
    }
    int32 Uploads = 0;    ///< stub: uploads made
    int32 BadUploads = 0; ///< stub: uploads to no buffer, of no data, or past the buffer's end

  private:
    std::vector<std::unique_ptr<FRDGBuffer>> Buffers;
    std::vector<std::unique_ptr<FRDGBufferSRV>> Views;
};
