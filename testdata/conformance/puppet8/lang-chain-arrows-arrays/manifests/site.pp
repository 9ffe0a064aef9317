notify { ['a1', 'a2']: }
notify { ['b1', 'b2']: }
[Notify['a1'], Notify['a2']] -> [Notify['b1'], Notify['b2']]
