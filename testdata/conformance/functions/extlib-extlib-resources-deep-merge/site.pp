notify { 'call 1: README example': message => extlib::resources_deep_merge(
  { 'one' => { 'ensure' => 'present', 'opts' => { 'a' => 1 } }, 'two' => { 'opts' => { 'b' => 2, 'a' => 3 } } },
  { 'ensure' => 'absent', 'opts' => { 'a' => 0, 'c' => 'ü' } },
) }
notify { 'call 2: empty resources': message => extlib::resources_deep_merge({}, { 'x' => 1 }) }
notify { 'call 3: empty defaults': message => extlib::resources_deep_merge({ 'r' => { 'k' => [1] } }, {}) }
