package { 'y': }
package { 'z': }
notify { 'r1': require => [undef] }
notify { 'r2': before => [[undef, Package['y']], undef] }
notify { 'r3': subscribe => [undef, 'Package[y]'], notify => [Package['z'], undef] }
notify { 'r4': message => [undef, 'x'], require => [[Package['y']]] }
