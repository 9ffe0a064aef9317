package { 'base': }
package { 'extra': }
service { 'svc': require => Package['base'] }
Service <| title == 'svc' |> { require +> Package['extra'] }
