#pragma once
#include "StubRendering.h"
