// A minimal stand-in for the parts of Unreal Engine 5 the Sinew plugin's rope component
// and world subsystem use, so that their C++ compiles and runs under g++ in
// tests/cpp/unreal_stub_test.cpp. It is not Unreal: the reflection macros expand to
// nothing, containers wrap the standard library, transforms are translations, and the
// mesh and delegate types record what they are given. Names and signatures follow UE
// 5.x; a call the plugin makes that UE does not have would still be caught only by a
// real UnrealBuildTool build.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#define UCLASS(...)
#define USTRUCT(...)
#define UENUM(...)
#define UPROPERTY(...)
#define UFUNCTION(...)
#define GENERATED_BODY()
#define SINEW_API
#define THIRD_PARTY_INCLUDES_START
#define THIRD_PARTY_INCLUDES_END
#define WITH_EDITOR 1
#define PLATFORM_WINDOWS 0
#define PLATFORM_MAC 0
#define PLATFORM_LINUX 1
#define TEXT(s) s
#define UTF8_TO_TCHAR(s) (s)
#define INDEX_NONE (-1)
#define MAX_int32 (0x7fffffff)
#define MAX_uint32 (0xffffffffu)
#define GET_MEMBER_NAME_CHECKED(Class, Member) (((void)sizeof(&Class::Member)), FName(#Member))

using uint8 = std::uint8_t;
using uint32 = std::uint32_t;
using int32 = std::int32_t;
using int64 = std::int64_t;
using uint64 = std::uint64_t;
using TCHAR = char;
using SIZE_T = std::size_t;

namespace ESearchCase {
enum Type { CaseSensitive, IgnoreCase };
}
struct FString {
    std::string S;
    FString() = default;
    FString(const char* s) : S(s) {}
    const char* operator*() const { return S.c_str(); }
    int32_t Len() const { return static_cast<int32_t>(S.size()); }
    bool IsEmpty() const { return S.empty(); }
    bool operator==(const FString& o) const { return S == o.S; }
    FString& operator+=(const FString& o) {
        S += o.S;
        return *this;
    }
    FString& operator+=(const char* o) {
        S += o;
        return *this;
    }
    friend FString operator+(FString a, const FString& b) { return a += b; }
    /// Stub: case-sensitive only (the plugin passes ESearchCase::CaseSensitive).
    FString Replace(const char* From, const char* To, ESearchCase::Type = ESearchCase::IgnoreCase) const {
        FString Out;
        const std::string F(From);
        std::size_t At = 0;
        for (std::size_t Hit; !F.empty() && (Hit = S.find(F, At)) != std::string::npos; At = Hit + F.size()) {
            Out.S.append(S, At, Hit - At);
            Out.S += To;
        }
        Out.S.append(S, At, std::string::npos);
        return Out;
    }
};

enum EName { NAME_None };
struct FName {
    std::string S;
    FName() = default;
    FName(EName) {}
    FName(const char* s) : S(s) {}
    bool operator==(const FName& o) const { return S == o.S; }
    bool operator!=(const FName& o) const { return S != o.S; }
    bool IsNone() const { return S.empty(); }
};

// Logging: counted, so a test can require that nothing was logged.
struct FLogCategory {
    const char* Name;
};
inline int& GStubLogCount() {
    static int n = 0;
    return n;
}
#define DECLARE_LOG_CATEGORY_EXTERN(Name, Default, Compile) extern FLogCategory Name
#define DEFINE_LOG_CATEGORY(Name) FLogCategory Name{#Name}
template <class... Args>
void StubLog(const char* Verbosity, const char* Format, Args... args) {
    ++GStubLogCount();
    std::printf("[%s] ", Verbosity);
    if constexpr (sizeof...(Args) == 0) {
        std::fputs(Format, stdout);
    } else {
        std::printf(Format, args...);
    }
    std::printf("\n");
}
#define UE_LOG(Category, Verbosity, ...) ((void)Category, StubLog(#Verbosity, __VA_ARGS__))

template <class T>
struct TNumericLimits {
    static constexpr T Max() { return std::numeric_limits<T>::max(); }
    static constexpr T Lowest() { return std::numeric_limits<T>::lowest(); }
};

struct FMath {
    template <class T> static T Max(T a, T b) { return a < b ? b : a; }
    static double CeilToDouble(double v) { return std::ceil(v); }
    template <class T> static T Min(T a, T b) { return b < a ? b : a; }
    template <class T> static T Clamp(T v, T lo, T hi) { return v < lo ? lo : (hi < v ? hi : v); }
    static double Sqrt(double v) { return std::sqrt(v); }
    static float Sqrt(float v) { return std::sqrt(v); }
    static double Fmod(double x, double y) { return std::fmod(x, y); }
    static bool IsFinite(float v) { return std::isfinite(v); }
};
/// Stub: never a commandlet (cooking, resaving).
inline bool IsRunningCommandlet() { return false; }

struct FMemory {
    static void* Memcpy(void* d, const void* s, std::size_t n) { return std::memcpy(d, s, n); }
};

struct FVector3f;
struct FVector {
    double X = 0, Y = 0, Z = 0;
    static const FVector ZeroVector;
    FVector() = default;
    FVector(double x, double y, double z) : X(x), Y(y), Z(z) {}
    explicit FVector(double v) : X(v), Y(v), Z(v) {}
    explicit FVector(const FVector3f& f);
    FVector operator*(double s) const { return {X * s, Y * s, Z * s}; }
    FVector operator+(const FVector& o) const { return {X + o.X, Y + o.Y, Z + o.Z}; }
    FVector operator-(const FVector& o) const { return {X - o.X, Y - o.Y, Z - o.Z}; }
    bool operator==(const FVector& o) const { return X == o.X && Y == o.Y && Z == o.Z; }
    bool operator!=(const FVector& o) const { return !(*this == o); }
    bool IsNearlyZero() const { return std::fabs(X) < 1e-8 && std::fabs(Y) < 1e-8 && std::fabs(Z) < 1e-8; }
    static double Dist(const FVector& a, const FVector& b) {
        const FVector d = a - b;
        return std::sqrt(d.X * d.X + d.Y * d.Y + d.Z * d.Z);
    }
    FVector GetSafeNormal() const {
        const double l = std::sqrt(X * X + Y * Y + Z * Z);
        return l > 1e-8 ? FVector(X / l, Y / l, Z / l) : FVector();
    }
};
inline const FVector FVector::ZeroVector{};
struct FVector3f {
    float X = 0, Y = 0, Z = 0;
    FVector3f() = default;
    FVector3f(float x, float y, float z) : X(x), Y(y), Z(z) {}
    explicit FVector3f(const FVector& d) : X(static_cast<float>(d.X)), Y(static_cast<float>(d.Y)), Z(static_cast<float>(d.Z)) {}
};
inline FVector::FVector(const FVector3f& f) : X(f.X), Y(f.Y), Z(f.Z) {}
struct FVector2D {
    double X = 0, Y = 0;
    FVector2D(double x, double y) : X(x), Y(y) {}
};
struct FVector2f {
    float X = 0, Y = 0;
    FVector2f() = default;
    FVector2f(float x, float y) : X(x), Y(y) {}
};
struct FVector4f {
    float X = 0, Y = 0, Z = 0, W = 0;
    FVector4f() = default;
    FVector4f(float x, float y, float z, float w) : X(x), Y(y), Z(z), W(w) {}
    FVector4f(const FVector3f& v, float w) : X(v.X), Y(v.Y), Z(v.Z), W(w) {}
};
struct FColor {
    uint8 R = 0, G = 0, B = 0, A = 0;
    static const FColor White;
};
inline const FColor FColor::White{255, 255, 255, 255};
struct FQuat {
    double X = 0, Y = 0, Z = 0, W = 1;
    FQuat() = default;
    FQuat(double x, double y, double z, double w) : X(x), Y(y), Z(z), W(w) {}
    static const FQuat Identity;
    /// q v q* (a unit quaternion), as UE: v + 2w (q x v) + 2 q x (q x v).
    FVector RotateVector(const FVector& v) const {
        const FVector q(X, Y, Z);
        const FVector t(2.0 * (q.Y * v.Z - q.Z * v.Y), 2.0 * (q.Z * v.X - q.X * v.Z), 2.0 * (q.X * v.Y - q.Y * v.X));
        return FVector(v.X + W * t.X + (q.Y * t.Z - q.Z * t.Y), v.Y + W * t.Y + (q.Z * t.X - q.X * t.Z),
                       v.Z + W * t.Z + (q.X * t.Y - q.Y * t.X));
    }
};
inline const FQuat FQuat::Identity{};
struct FQuat4f {
    float X = 0, Y = 0, Z = 0, W = 1;
    FQuat4f() = default;
    FQuat4f(float x, float y, float z, float w) : X(x), Y(y), Z(z), W(w) {}
    explicit FQuat4f(const FQuat& q)
        : X(static_cast<float>(q.X)), Y(static_cast<float>(q.Y)), Z(static_cast<float>(q.Z)), W(static_cast<float>(q.W)) {}
    static const FQuat4f Identity;
};
inline const FQuat4f FQuat4f::Identity{};
struct FLinearColor {
    float R = 0, G = 0, B = 0, A = 1;
};
/// A translation (the tests move nothing else), and a rotation and a scale that only
/// instance transforms carry (TransformPosition ignores both).
struct FTransform {
    FVector Translation;
    FVector Scale3D{1, 1, 1};
    FQuat Rotation;
    FTransform() = default;
    explicit FTransform(const FVector& t) : Translation(t) {}
    /// Stub: kept for instance transforms (the fluid's ellipsoids), ignored when
    /// transforming positions.
    FTransform(const FQuat& q, const FVector& t, const FVector& s) : Translation(t), Scale3D(s), Rotation(q) {}
    FVector GetLocation() const { return Translation; }
    FQuat GetRotation() const { return Rotation; }
    FVector GetScale3D() const { return Scale3D; }
    bool Equals(const FTransform& o, double Tolerance) const {
        auto near = [Tolerance](const FVector& a, const FVector& b) {
            return std::fabs(a.X - b.X) <= Tolerance && std::fabs(a.Y - b.Y) <= Tolerance && std::fabs(a.Z - b.Z) <= Tolerance;
        };
        return near(Translation, o.Translation) && near(Scale3D, o.Scale3D);
    }
    FVector TransformPosition(const FVector& p) const { return p + Translation; }
    FVector InverseTransformPosition(const FVector& p) const { return p - Translation; }
    FVector TransformVectorNoScale(const FVector& v) const { return v; }
};

/// An axis-aligned box (cm).
struct FBox {
    FVector Min, Max;
    FBox(const FVector& min, const FVector& max) : Min(min), Max(max) {}
    FBox& operator+=(const FVector& p) {
        Min = FVector(std::fmin(Min.X, p.X), std::fmin(Min.Y, p.Y), std::fmin(Min.Z, p.Z));
        Max = FVector(std::fmax(Max.X, p.X), std::fmax(Max.Y, p.Y), std::fmax(Max.Z, p.Z));
        return *this;
    }
    FBox ExpandBy(double w) const { return FBox(Min - FVector(w), Max + FVector(w)); }
};
/// Bounds as UE keeps them: the box's centre and half extent, and the sphere around it.
struct FBoxSphereBounds {
    FVector Origin, BoxExtent;
    double SphereRadius = 0;
    FBoxSphereBounds() = default;
    explicit FBoxSphereBounds(const FBox& b)
        : Origin((b.Min + b.Max) * 0.5), BoxExtent((b.Max - b.Min) * 0.5),
          SphereRadius(std::sqrt(BoxExtent.X * BoxExtent.X + BoxExtent.Y * BoxExtent.Y + BoxExtent.Z * BoxExtent.Z)) {}
    FBox GetBox() const { return FBox(Origin - BoxExtent, Origin + BoxExtent); }
    /// Stub: transforms are translations.
    FBoxSphereBounds TransformBy(const FTransform& T) const {
        FBoxSphereBounds B = *this;
        B.Origin = T.TransformPosition(Origin);
        return B;
    }
};

template <class T>
class TArray {
  public:
    using SizeType = int32;
    void Add(const T& v) { V.push_back(v); }
    T& Add_GetRef(const T& v) {
        V.push_back(v);
        return V.back();
    }
    void AddUnique(const T& v) {
        if (!Contains(v)) V.push_back(v);
    }
    int32 Remove(const T& v) {
        const auto n = V.size();
        V.erase(std::remove(V.begin(), V.end(), v), V.end());
        return static_cast<int32>(n - V.size());
    }
    bool Contains(const T& v) const { return std::find(V.begin(), V.end(), v) != V.end(); }
    bool IsValidIndex(int32 i) const { return i >= 0 && i < Num(); }
    void Reserve(int32 n) { V.reserve(static_cast<std::size_t>(n)); }
    void Reset() { V.clear(); }
    int32 Num() const { return static_cast<int32>(V.size()); }
    void SetNumUninitialized(int32 n) { V.resize(static_cast<std::size_t>(n)); }
    void SetNumZeroed(int32 n) { V.assign(static_cast<std::size_t>(n), T()); }
    void SetNum(int32 n) { V.resize(static_cast<std::size_t>(n)); }
    T* GetData() { return V.data(); }
    const T* GetData() const { return V.data(); }
    T& operator[](int32 i) { return V[static_cast<std::size_t>(i)]; }
    const T& operator[](int32 i) const { return V[static_cast<std::size_t>(i)]; }
    typename std::vector<T>::iterator begin() { return V.begin(); }
    typename std::vector<T>::iterator end() { return V.end(); }
    typename std::vector<T>::const_iterator begin() const { return V.begin(); }
    typename std::vector<T>::const_iterator end() const { return V.end(); }
    std::vector<T> V;
};

/// Stub: the flags a test sets (the class default object's).
enum EObjectFlags { RF_NoFlags = 0, RF_ClassDefaultObject = 0x10 };
/// Stub: one class object per UObject type is all the plugin names (FNiagaraTypeDefinition).
class UClass {};

class UObject {
  public:
    virtual ~UObject() = default;
    virtual void PostInitProperties() {}
    bool HasAnyFlags(EObjectFlags F) const { return (Flags & F) != 0; }
    /// Stub: one UClass per dynamic type would need RTTI names; one for all is enough here.
    UClass* GetClass() const {
        static UClass Class;
        return &Class;
    }
    EObjectFlags Flags = RF_NoFlags; ///< stub: set by the test
    FString GetPathName() const { return FString("/Stub/Object"); }
    FString GetName() const { return FString("Object"); }
    FName GetFName() const { return Name; }
    FName Name; ///< stub: set by the test
};

template <class T>
class TWeakObjectPtr {
  public:
    TWeakObjectPtr() = default;
    TWeakObjectPtr(T* p) : P(p) {}
    TWeakObjectPtr& operator=(T* p) {
        P = p;
        return *this;
    }
    T* Get() const { return P; }
    bool IsValid() const { return P != nullptr; }
    void Reset() { P = nullptr; }

  private:
    T* P = nullptr;
};
template <class T>
using TObjectPtr = T*;

template <class T, class U>
std::conditional_t<std::is_const_v<U>, const T*, T*> Cast(U* p) {
    return dynamic_cast<std::conditional_t<std::is_const_v<U>, const T*, T*>>(p);
}

template <class T>
const T* GetDefault() {
    static T Default;
    return &Default;
}

struct FObjectInitializer {};

template <class T>
std::remove_reference_t<T>&& MoveTemp(T&& v) {
    return static_cast<std::remove_reference_t<T>&&>(v);
}
/// Rounds Val up to a multiple of Alignment (a power of two), as UE's Align.
template <class T>
constexpr T Align(T Val, uint64 Alignment) {
    return static_cast<T>((static_cast<uint64>(Val) + Alignment - 1) & ~(Alignment - 1));
}

/// UE's TUniquePtr. Stub: a std::unique_ptr.
template <class T>
class TUniquePtr {
  public:
    TUniquePtr() = default;
    void Reset(T* p = nullptr) { P.reset(p); }
    T* Get() const { return P.get(); }
    T* operator->() const { return P.get(); }
    explicit operator bool() const { return P != nullptr; }
    bool IsValid() const { return P != nullptr; }

  private:
    std::unique_ptr<T> P;
};

/// UE's TMap. Stub: a std::map (keys ordered, which TMap does not promise).
template <class K, class V>
class TMap {
  public:
    V* Find(const K& k) {
        auto it = M.find(k);
        return it == M.end() ? nullptr : &it->second;
    }
    const V* Find(const K& k) const {
        auto it = M.find(k);
        return it == M.end() ? nullptr : &it->second;
    }
    V& FindOrAdd(const K& k) { return M[k]; }
    int32 Remove(const K& k) { return static_cast<int32>(M.erase(k)); }
    int32 Num() const { return static_cast<int32>(M.size()); }
    std::map<K, V> M;
};

struct FArchive {
    bool bSaving = true;
    TArray<uint8> Stored;
    bool IsSaving() const { return bSaving; }
    bool IsLoading() const { return !bSaving; }
    FArchive& operator<<(TArray<uint8>& Bytes) {
        if (bSaving)
            Stored = Bytes;
        else
            Bytes = Stored;
        return *this;
    }
};

struct FPropertyChangedEvent {
    FName Name;
    FName GetPropertyName() const { return Name; }
};

// Dynamic multicast delegates: Broadcast calls what AddLambda (a stand-in for
// AddDynamic, which needs UObject reflection) registered.
#define DECLARE_DYNAMIC_MULTICAST_DELEGATE_FiveParams(Name, T1, N1, T2, N2, T3, N3, T4, N4, T5, N5)                     \
    struct Name {                                                                                                    \
        std::vector<std::function<void(T1, T2, T3, T4, T5)>> Calls;                                                  \
        void AddLambda(std::function<void(T1, T2, T3, T4, T5)> f) { Calls.push_back(std::move(f)); }                 \
        void Broadcast(T1 N1, T2 N2, T3 N3, T4 N4, T5 N5) const {                                                    \
            for (const auto& f : Calls) f(N1, N2, N3, N4, N5);                                                       \
        }                                                                                                            \
    }
#define DECLARE_DYNAMIC_MULTICAST_DELEGATE_FourParams(Name, T1, N1, T2, N2, T3, N3, T4, N4)                             \
    struct Name {                                                                                                    \
        std::vector<std::function<void(T1, T2, T3, T4)>> Calls;                                                      \
        void AddLambda(std::function<void(T1, T2, T3, T4)> f) { Calls.push_back(std::move(f)); }                     \
        void Broadcast(T1 N1, T2 N2, T3 N3, T4 N4) const {                                                           \
            for (const auto& f : Calls) f(N1, N2, N3, N4);                                                           \
        }                                                                                                            \
    }
