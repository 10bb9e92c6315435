"""Reads the English of ACPBench's released records back into PDDL: the domain, objects, state and goal a record's
`context` describes, and the actions and atoms its question and choices name.

Released bool/MCQ records carry no PDDL, only English. Each supported domain has a data file here,
`<domain>.yaml` (how its context is recognised, the object types by name or by the context's own lists of names
(`lists`: "There are 4 agents: zoe, bob, vic, and steve") or counts by class (`count_lists`: "2 cloths, 1 towel" are
cloth1, cloth2, towel1), the sentences of its state, goal and
static facts, every English phrasing of its atoms and actions seen in the release, and the release's distractor
phrasings that name no action of the domain, e.g. a truck in Floortile), and `<domain>.pddl` (the
domain file of the release's generative records, which carry the same English beside the PDDL; data of ACPBench's
release, IBM, CDLA-Permissive-2.0, kept byte for byte). Templates are
English with placeholders: `{x}` is one object name, `{xs*}` a list ("a", "a and b", "a, b, and c") that expands
to one fact per name; `{x#}` in a fact is the number at the end of x's name (robot1 -> 1).

`read_context(text)` returns the `Reading` (domain, objects, init, goal, problem PDDL) or None when the domain is
not supported; `ContextError` names the first sentence it cannot read. The reader never looks at a record's answer.
What the English leaves out is filled by documented rules of each domain file (e.g. Ferry's `not-eq` facts between
distinct locations, Grid's and Visitall's 4-neighbour connections); `tests/test_acp_english.py` checks every rule
against the release's generative records, whose PDDL is known. Where the release's problems differ on facts the
English never states, the domain file lists `readings` (another domain file, or static facts left open) and
`readings(reading)` gives every problem the context may stand for. A template may hold only under a condition on the
context's facts (`when`: Alfworld's "picks up object o from receptacle r" is one action for an openable r, another for
the rest), and a `switch` phrasing names whichever of its actions applies where it is performed (Alfworld's
"toggles"). The domain files cover all thirteen of the release's domains; `tests/test_acp_english_release.py` and
`tests/test_acp_english_alfworld.py` read text written in the wording of the five the dev split lacks. Alfworld's
problems rest on static facts its English never states: `alfworld.yaml` keeps ALFRED/ALFWorld's knowledge of classes
as data (pickupable, cleanable, heatable, coolable, toggleable, sliceable; which receptacle class holds which class)
and its `classes` rule gives each object of the scene its class's facts, and a receptacle is openable when said open
or closed. Checked on the test split's 80 Alfworld generative records (58 problems): the English of every one reads
back to exactly its problem's init, static facts included, and goal.

apb's own records are read on any domain by `apb.acp.english.generated`: a reader built from the NL templates apb
words the domain with (each reading verified by rendering it again), paired with a record by `attach_domains`.
"""

from apb.acp.english.context import Reading, read_context, readings, segmentations, split_atoms
from apb.acp.english.domains import Domain, domain_of, domains
from apb.acp.english.phrases import HERE, ContextError, Template, normal_space, read_one, split_list

__all__ = ["HERE", "ContextError", "Domain", "Reading", "Template", "domain_of", "domains", "normal_space",
           "read_context", "read_one", "readings", "segmentations", "split_atoms", "split_list"]
