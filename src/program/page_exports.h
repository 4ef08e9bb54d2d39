// The page API's C exports act on this state (web build; a no-op natively).
#pragma once

namespace ap {
struct PlaygroundState;
void page_api_attach(PlaygroundState* st);
}  // namespace ap
