# A collector that collects nothing in the middle of a chain: the arrow after
# it takes the collector's left operand as its source (X -> [] ~> Y is X ~> Y).
notify { 'begin': } -> Package<| tag == 'nothing-has-this-tag' |> ~> notify { 'end': }
notify { 'first': } -> [] -> notify { 'last': }
package { 'collected': ensure => present, tag => 'mine' }
notify { 'b2': } -> Package<| tag == 'mine' |> ~> notify { 'e2': }
