/* states.c — which analysis offers a dataset's states: the first of the
 * registry whose source says it derives them from these records. */
#include "analysis/analysis.h"

const pw_states_source *pw_states_source_for(const pw_dataset *ds)
{
    for (size_t i = 0; i < pw_n_analyses; i++) {
        const pw_states_source *src = pw_analyses[i]->states;
        if (src && src->offers(ds))
            return src;
    }
    return NULL;
}
