notify { 'call 1: README-style dashboards':
  message => grafana::deep_find_and_remove('content', {
    'dash1' => { 'content' => { 'title' => 'A', 'puppetsource' => 'x' } },
    'dash2' => { 'nested' => { 'content' => { 'title' => 'B' } } },
  }),
}
notify { 'call 2: key absent': message => grafana::deep_find_and_remove('content', { 'a' => 1, 'b' => [1, 2] }) }
notify { 'call 3: empty hash': message => grafana::deep_find_and_remove('content', {}) }
notify { 'call 4: custom remove key': message => grafana::deep_find_and_remove('k', { 'k' => { 'drop' => 1, 'keep' => 2 } }, 'drop') }
