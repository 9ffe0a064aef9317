package { 'vim': ensure => installed }
package { 'vim': ensure => latest }
