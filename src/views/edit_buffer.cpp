#include "views/edit_buffer.h"

#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID, ClearActiveID

namespace ap {

void release_active_field(std::initializer_list<const char*> text_field_ids) {
  for (const char* id : text_field_ids)
    if (ImGui::GetActiveID() == ImGui::GetID(id)) ImGui::ClearActiveID();
}

}  // namespace ap
