#pragma once
class ULevel {};
